// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { previewPageHtml } from "./preview-page";
import {
  contentSecurityPolicy,
  contentSecurityPolicyHeader,
  hostingHeadersFile,
  PREVIEW_CSP,
  PREVIEW_PAGE_PATH,
  previewPageHeaders,
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

describe("the preview page's policy", () => {
  it("lets inline script run but nothing load, and only the app may frame it", () => {
    const policy = previewPageHeaders()["Content-Security-Policy"] ?? "";
    expect(directive(policy, "default-src")).toBe("'none'");
    expect(directive(policy, "script-src")).toBe("'unsafe-inline'");
    expect(directive(policy, "connect-src")).toBeUndefined();
    expect(directive(policy, "frame-ancestors")).toBe("'self'");
    expect(policy).not.toMatch(/https?:|\*/);
  });

  it("the app may frame its own pages only", () => {
    expect(directive(contentSecurityPolicy("build"), "frame-src")).toBe("'self'");
  });

  it("the hosting file gives the preview page its own policy instead of the app's", () => {
    const file = hostingHeadersFile();
    const block = file.slice(file.indexOf(`\n${PREVIEW_PAGE_PATH}\n`));
    expect(block).toContain("  ! Content-Security-Policy\n");
    expect(block).toContain(`  Content-Security-Policy: ${previewPageHeaders()["Content-Security-Policy"]}\n`);
  });

  it("the page's document starts with the same policy", () => {
    const doc = new DOMParser().parseFromString(previewPageHtml(), "text/html");
    expect(doc.head.firstElementChild?.getAttribute("content")).toBe(PREVIEW_CSP);
  });
});
