import { describe, expect, it } from "vitest";
import { isLocalHostname, plainHttpOrigin } from "./plain-http";

describe("isLocalHostname / plainHttpOrigin", () => {
  it.each(["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "::1", "nas.local", "app.localhost"])(
    "%s is local",
    (h) => expect(isLocalHostname(h)).toBe(true),
  );
  it.each(["example.com", "192.168.1.10", "127.0.0.1.example.com", "localhost.evil.com", "10.0.0.2"])(
    "%s is not",
    (h) => expect(isLocalHostname(h)).toBe(false),
  );
  it("flags only plain http to a non-local host", () => {
    expect(plainHttpOrigin("http://192.168.1.10:11434/v1")).toBe("http://192.168.1.10:11434");
    expect(plainHttpOrigin("http://proxy.example.com/v1")).toBe("http://proxy.example.com");
    expect(plainHttpOrigin("https://proxy.example.com/v1")).toBeUndefined();
    expect(plainHttpOrigin("http://localhost:11434/v1")).toBeUndefined();
    expect(plainHttpOrigin("http://127.0.0.1:8080")).toBeUndefined();
    expect(plainHttpOrigin("not a url")).toBeUndefined();
  });
});
