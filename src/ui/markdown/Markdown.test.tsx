// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import type { Options } from "react-markdown";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Markdown } from "./Markdown";
import { urlTransform } from "./pipeline";

// Count parses: every render of react-markdown's component is one full parse + highlight.
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock("react-markdown", async (importOriginal) => {
  const mod = await importOriginal<typeof import("react-markdown")>();
  return {
    ...mod,
    default: (props: Readonly<Options>) => {
      parses.count++;
      return mod.default(props);
    },
  };
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderMd(text: string, streaming?: boolean) {
  return render(<Markdown text={text} streaming={streaming} />).container;
}

describe("GFM", () => {
  it("renders a table with alignment, scrollable wrapper", () => {
    const c = renderMd("| Name | Qty |\n|:-----|----:|\n| apple | 3 |\n| pear | 12 |");
    const table = c.querySelector(".md-table-wrap > table");
    expect(table).not.toBeNull();
    expect([...c.querySelectorAll("th")].map((th) => th.textContent)).toEqual(["Name", "Qty"]);
    expect([...c.querySelectorAll("tbody tr")].map((tr) => tr.textContent)).toEqual(["apple3", "pear12"]);
    expect(c.querySelector("td:last-child")?.getAttribute("style")).toContain("right");
  });

  it("renders bullet, ordered and task lists", () => {
    const c = renderMd("- a\n- b\n  - nested\n\n3. three\n4. four\n\n- [x] done\n- [ ] todo");
    expect(c.querySelectorAll("ul").length).toBe(3);
    expect(c.querySelector("ul ul li")?.textContent).toBe("nested");
    const ol = c.querySelector("ol");
    expect(ol?.getAttribute("start")).toBe("3");
    expect(ol?.querySelectorAll("li").length).toBe(2);
    const boxes = [...c.querySelectorAll<HTMLInputElement>(".task-list-item input[type=checkbox]")];
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it("renders ~~strikethrough~~ but leaves single tildes alone", () => {
    const c = renderMd("~~gone~~ takes ~5 min and ~10 MB");
    expect(c.querySelectorAll("del").length).toBe(1);
    expect(c.querySelector("del")?.textContent).toBe("gone");
    expect(c.textContent).toContain("takes ~5 min and ~10 MB");
  });

  it("autolinks bare URLs", () => {
    const c = renderMd("see www.example.com and https://example.org/path?q=1");
    expect([...c.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual([
      "http://www.example.com/",
      "https://example.org/path?q=1",
    ]);
  });

  it("links footnotes within the message", () => {
    const c = renderMd("claim[^1]\n\n[^1]: source");
    const ref = c.querySelector<HTMLAnchorElement>("a[data-footnote-ref]");
    const href = ref?.getAttribute("href") ?? "";
    expect(href.startsWith("#")).toBe(true);
    expect(c.querySelector(`[id="${href.slice(1)}"]`)?.textContent).toContain("source");
    expect(ref?.hasAttribute("target")).toBe(false);
  });

  it("following a footnote and its back link moves focus there and leaves the URL (the open chat) alone", () => {
    const scrolled = vi.fn();
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = scrolled; // jsdom has no layout
    const hashBefore = window.location.hash;
    const c = renderMd("claim[^1] and more\n\n[^1]: [Source](https://example.com/a)");
    const ref = c.querySelector<HTMLAnchorElement>("a[data-footnote-ref]")!;
    fireEvent.click(ref);
    const note = c.querySelector(`[id="${ref.getAttribute("href")!.slice(1)}"]`);
    expect(document.activeElement).toBe(note);
    expect(window.location.hash).toBe(hashBefore);
    const back = c.querySelector<HTMLAnchorElement>("a[data-footnote-backref]")!;
    fireEvent.click(back);
    expect(document.activeElement).toBe(ref);
    expect(window.location.hash).toBe(hashBefore);
    expect(scrolled).toHaveBeenCalledTimes(2);
    Element.prototype.scrollIntoView = original;
  });
});

describe("code", () => {
  const source = "const answer: number = 42; // the answer\nfunction greet(name) {\n  return 'hi ' + name;\n}";

  let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;
  beforeEach(() => {
    writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
  });

  it("shows a fenced block as plain code first, then highlights it in a later task", async () => {
    const c = renderMd(`\`\`\`ts\n${source}\n\`\`\``);
    const plain = c.querySelector(".md-code pre > code");
    expect(plain?.textContent).toBe(`${source}\n`);
    expect(plain?.querySelector(".hljs-keyword")).toBeNull();
    await waitFor(() => expect(c.querySelector(".md-code pre > code .hljs-keyword")).not.toBeNull());
    const code = c.querySelector(".md-code pre > code");
    expect(code?.classList.contains("hljs")).toBe(true);
    expect(code?.classList.contains("language-ts")).toBe(true);
    expect(code?.querySelector(".hljs-keyword")?.textContent).toBe("const");
    expect(code?.querySelector(".hljs-comment")?.textContent).toBe("// the answer");
    expect(code?.querySelector(".hljs-title.function_")?.textContent).toBe("greet");
    expect(c.querySelector(".md-code-lang")?.textContent).toBe("ts");
    expect(code?.textContent).toBe(`${source}\n`);
  });

  it("shows a block coloured before at once when it mounts again (a row scrolled back into view)", async () => {
    const text = "```python\ndef again():\n    return 1\n```";
    const first = renderMd(text);
    await waitFor(() => expect(first.querySelector("pre code .hljs-keyword")).not.toBeNull());
    cleanup();
    const second = renderMd(text);
    expect(second.querySelector("pre code .hljs-keyword")?.textContent).toBe("def");
  });

  it("copies the exact code text and briefly shows Copied", async () => {
    vi.useFakeTimers();
    renderMd(`Intro \`inline\`\n\n\`\`\`python\n${source}\n\`\`\`\n\nOutro`);
    const button = screen.getByRole("button", { name: "Copy code" });
    expect(button.textContent).toBe("Copy");

    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledTimes(1);
    expect(writeText).toHaveBeenCalledWith(source);
    expect(button.textContent).toBe("Copied");
    expect(screen.getByRole("button", { name: "Copy code" })).toBe(button);

    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(button.textContent).toBe("Copy");
  });

  it("gives each block its own button and copies the right one", async () => {
    renderMd("```\nfirst\n```\n\n```sh\necho second\n```");
    const buttons = screen.getAllByRole("button", { name: "Copy code" });
    expect(buttons).toHaveLength(2);
    await act(async () => {
      fireEvent.click(buttons[1]!);
    });
    expect(writeText).toHaveBeenCalledWith("echo second");
  });

  it("reports a clipboard failure instead of throwing", async () => {
    writeText.mockRejectedValue(new Error("denied"));
    renderMd("```\nx\n```");
    const button = screen.getByRole("button", { name: "Copy code" });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(button.textContent).toBe("Copy failed");
  });

  it("keeps inline code inline (no block wrapper, no button)", () => {
    const c = renderMd("Use `npm test` here.");
    const code = c.querySelector("p > code");
    expect(code?.textContent).toBe("npm test");
    expect(c.querySelector("pre")).toBeNull();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("renders an unterminated fence while streaming", () => {
    const c = renderMd("Here:\n\n```js\nconst a = 1;\n", true);
    expect(c.querySelector(".md")?.classList.contains("md-streaming")).toBe(true);
    expect(c.querySelector("pre code .hljs-keyword")?.textContent).toBe("const");
  });
});

/** Schemes that must never reach an href/src, compared the way a browser parses them. */
function isScriptUrl(value: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: browsers strip these before reading the scheme
  const normalized = value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
  return /^(javascript|vbscript|data|file|blob):/.test(normalized);
}

function expectInert(container: HTMLElement) {
  expect(container.querySelectorAll("script, iframe, svg, img, object, embed, style, form, frame").length).toBe(0);
  expect(container.querySelectorAll("img[onerror]").length).toBe(0);
  for (const el of container.querySelectorAll("*")) {
    for (const attr of el.attributes) {
      expect(attr.name.toLowerCase().startsWith("on"), `${el.tagName} has ${attr.name}`).toBe(false);
      if (["href", "src", "xlink:href", "action", "formaction", "srcset", "poster"].includes(attr.name.toLowerCase())) {
        expect(isScriptUrl(attr.value), `${el.tagName} ${attr.name}=${attr.value}`).toBe(false);
      }
    }
  }
}

describe("untrusted input", () => {
  const payloads = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x](  javascript:alert(1))",
    "![x](javascript:alert(1))",
    '<a href="javascript:alert(1)">x</a>',
    '<iframe src="https://evil.example/"></iframe>',
    "<svg onload=alert(1)><circle/></svg>",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](vbscript:msgbox(1))",
    // Variants: autolink, character references, angle-bracket destinations, reference links.
    "<javascript:alert(1)>",
    "[x](javascript&#58;alert(1))",
    "[x](&#x6A;avascript:alert(1))",
    "[x](<java script:alert(1)>)",
    "[x](<\tjavascript:alert(1)>)",
    "[x][r]\n\n[r]: javascript:alert(1)",
    "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "[![x](javascript:alert(1))](javascript:alert(2))",
    'hi <b onmouseover="alert(1)">bold</b> <details open ontoggle=alert(1)>',
    '<style>*{display:none}</style><form action="javascript:alert(1)"><button>go</button></form>',
    '[x](https://ok.example "onmouseover=alert(1)")',
    "| a |\n|---|\n| <img src=x onerror=alert(1)> [y](javascript:alert(1)) |",
  ];

  it.each(payloads)("stays inert: %s", (payload) => {
    const c = renderMd(payload);
    expectInert(c);
    // The same in a streaming (deferred, re-parsed) render.
    cleanup();
    expectInert(renderMd(payload, true));
  });

  it("stays inert with everything at once", () => {
    expectInert(renderMd(payloads.join("\n\n")));
  });

  it("shows raw HTML as literal text instead of dropping it", () => {
    const c = renderMd("<script>alert(1)</script>\n\nsay <b>hi</b>");
    expect(c.textContent).toContain("<script>alert(1)</script>");
    expect(c.textContent).toContain("say <b>hi</b>");
    expect(c.querySelector("b")).toBeNull();
  });

  it("keeps the text of a neutralized link but no href", () => {
    const c = renderMd("[click me](javascript:alert(1))");
    expect(c.querySelector("a")).toBeNull();
    expect(c.querySelector(".md-link-removed")?.textContent).toBe("click me");
  });

  it("keeps https links, opening them in a new tab without referrer", () => {
    const c = renderMd('[docs](https://example.com/docs?a=1#x "Docs") and <https://example.org>');
    const links = [...c.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual([
      "https://example.com/docs?a=1#x",
      "https://example.org/",
    ]);
    for (const a of links) {
      expect(a.getAttribute("target")).toBe("_blank");
      expect(a.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    }
    expect(links[0]?.getAttribute("title")).toBe("Docs");
  });

  it("does not load images: shows them as a link labelled with the alt text", () => {
    const c = renderMd(
      "![a cat](https://tracker.example/cat.png) [![nested](https://e.example/i.png)](https://e.example)",
    );
    expect(c.querySelector("img")).toBeNull();
    const image = c.querySelector<HTMLAnchorElement>("a.md-image-link");
    expect(image?.textContent).toBe("a cat");
    expect(image?.getAttribute("href")).toBe("https://tracker.example/cat.png");
    expect(image?.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    // An image inside a link becomes its alt text (no nested anchors).
    expect(c.querySelectorAll("a a").length).toBe(0);
    expect(c.querySelector('a[href="https://e.example/"]')?.textContent).toBe("nested");
  });
});

describe("urlTransform", () => {
  it.each([
    ["https://example.com/a", "https://example.com/a"],
    ["HTTP://Example.com", "http://example.com/"],
    ["mailto:a@b.example", "mailto:a@b.example"],
    ["#user-content-fn-1", "#user-content-fn-1"],
    ["javascript:alert(1)", ""],
    [" \u0001javascript:alert(1)", ""],
    ["java\tscript:alert(1)", ""],
    ["vbscript:msgbox(1)", ""],
    ["data:text/html,<script>alert(1)</script>", ""],
    ["file:///etc/passwd", ""],
    ["blob:https://example.com/uuid", ""],
    ["/relative/path", ""],
    ["ftp://example.com", ""],
  ])("%j -> %j", (input, expected) => {
    expect(urlTransform(input)).toBe(expected);
  });
});

/** Re-renders on click without changing `text`. */
function Parent({ text, streaming }: { text: string; streaming?: boolean }) {
  const [n, setN] = useState(0);
  return (
    <div>
      <button type="button" onClick={() => setN(n + 1)}>
        rerender {n}
      </button>
      <Markdown text={text} streaming={streaming} />
    </div>
  );
}

describe("performance", () => {
  it("does not re-parse a finished message when its parent re-renders", () => {
    const long = Array.from({ length: 200 }, (_, i) => `Paragraph ${i} with **bold** and \`code\`.`).join("\n\n");
    const { rerender } = render(<Parent text={long} />);
    const before = parses.count;
    fireEvent.click(screen.getByRole("button", { name: /rerender/ }));
    fireEvent.click(screen.getByRole("button", { name: /rerender/ }));
    expect(screen.getByRole("button", { name: /rerender/ }).textContent).toBe("rerender 2");
    expect(parses.count).toBe(before);

    rerender(<Parent text={`${long}\n\nmore`} />);
    expect(parses.count).toBeGreaterThan(before);
    expect(screen.getByText("more")).toBeTruthy();
  });

  it("re-parses as streamed text grows", () => {
    const { rerender } = render(<Parent text="Hel" streaming />);
    rerender(<Parent text="Hello **wor" streaming />);
    rerender(<Parent text="Hello **world**" streaming />);
    expect(document.querySelector("strong")?.textContent).toBe("world");
    rerender(<Parent text="Hello **world**" />);
    expect(document.querySelector(".md")?.classList.contains("md-streaming")).toBe(false);
  });
});

describe("source", () => {
  it("never uses dangerouslySetInnerHTML", () => {
    const files = import.meta.glob<string>(["./*.ts", "./*.tsx", "!./*.test.tsx"], {
      query: "?raw",
      import: "default",
      eager: true,
    });
    expect(Object.keys(files).length).toBeGreaterThanOrEqual(3);
    for (const [name, text] of Object.entries(files)) {
      expect(text.includes("dangerouslySetInnerHTML"), name).toBe(false);
    }
  });
});
