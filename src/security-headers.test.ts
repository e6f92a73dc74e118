import { describe, expect, it } from "vitest";
import {
  contentSecurityPolicy,
  contentSecurityPolicyHeader,
  hostingHeadersFile,
  securityHeaders,
} from "./security-headers";

const directive = (policy: string, name: string) =>
  policy
    .split("; ")
    .find((d) => d.startsWith(`${name} `))
    ?.slice(name.length + 1);

describe("the security policy", () => {
  it("built app: scripts only from the app, no inline script, no remote images, http(s) connections only", () => {
    const p = contentSecurityPolicy("build");
    expect(directive(p, "script-src")).toBe("'self'");
    expect(directive(p, "img-src")).toBe("'self' data: blob:");
    expect(directive(p, "connect-src")).toBe("'self' https: http:");
    expect(directive(p, "object-src")).toBe("'none'");
    expect(directive(p, "base-uri")).toBe("'none'");
    // Ignored (with a console warning) in a <meta>: only the header carries it.
    expect(directive(p, "frame-ancestors")).toBeUndefined();
    expect(directive(contentSecurityPolicyHeader("build"), "frame-ancestors")).toBe("'none'");
  });

  it("dev adds only what Vite needs: the inline React Refresh preamble and the HMR socket", () => {
    const dev = contentSecurityPolicy("dev");
    expect(directive(dev, "script-src")).toBe("'self' 'unsafe-inline'");
    expect(directive(dev, "connect-src")).toContain("ws:");
    expect(directive(dev, "img-src")).toBe("'self' data: blob:");
  });

  it("headers and the hosting file say the same thing", () => {
    const headers = securityHeaders("build");
    expect(headers["Referrer-Policy"]).toBe("no-referrer");
    const file = hostingHeadersFile();
    expect(file.startsWith("/*\n")).toBe(true);
    for (const [name, value] of Object.entries(headers)) expect(file).toContain(`  ${name}: ${value}\n`);
  });
});
