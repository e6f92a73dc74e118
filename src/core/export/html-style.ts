/**
 * The HTML export's one stylesheet (inline: the page's CSP allows nothing else). Quiet, system
 * fonts only (no url: the CSP would block it anyway), light and dark, phone width; Markdown,
 * tables, footnotes and code colours (highlight.js class names, GitHub-like palette).
 */
export const HTML_EXPORT_STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--user:#eef4ff;--accent:#0969da;--warn:#9a6700;--err:#cf222e;--ok:#1a7f37}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--card:#151b23;--user:#12213a;--accent:#4493f8;--warn:#d29922;--err:#f85149;--ok:#3fb950}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.page{max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem}
h1{font-size:1.5rem;line-height:1.25;margin:0 0 .25rem;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.875rem;margin:0 0 .5rem;overflow-wrap:anywhere}
.entry{margin:.75rem 0;padding:.75rem 1rem;border:1px solid var(--line);border-radius:.5rem;background:var(--bg)}
.entry.user{background:var(--user)}
.entry.continues{border-top:3px solid var(--ok)}
.entry-head{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;margin-bottom:.375rem}
.entry-head h2{font-size:.875rem;font-weight:600;color:var(--muted);margin:0;overflow-wrap:anywhere}
.label,.badge,.count{font-size:.75rem;border:1px solid var(--line);border-radius:1rem;padding:0 .5rem;color:var(--muted);overflow-wrap:anywhere}
.badge,.count{white-space:nowrap}
.badge{border-color:var(--ok);color:var(--ok)}
.text{white-space:pre-wrap;overflow-wrap:anywhere}
.entry>*+*,.card details>*+*{margin-top:.5rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);border:1px solid var(--line);padding:.5rem .75rem;border-radius:.375rem;margin:.25rem 0 0}
.tool-name{font-size:.8125rem;color:var(--muted);margin:0}
.tool-result.error pre{border-color:var(--err)}
.tool-result.error .tool-name,.status.error{color:var(--err)}
.status{font-style:italic;color:var(--warn);margin:0}
.image{font-style:italic;color:var(--muted);margin:0}
figure.attachment{margin:.5rem 0}figure.attachment img{max-width:100%;height:auto;border-radius:6px}figure.attachment figcaption{font-size:.85em;color:var(--muted)}
details>summary{cursor:pointer;color:var(--muted)}
.thinking .text{color:var(--muted);border-left:2px solid var(--line);padding-left:.75rem;margin-top:.25rem}
.card{background:var(--card);border-left:4px solid var(--accent)}
.card.compaction{border-left-color:var(--warn)}
.card.handoff{border-left-color:var(--ok)}
.card.system{padding:.5rem .75rem;border:1px solid var(--line);border-radius:.5rem;margin-top:.75rem}
.forks{margin:.5rem 0 .5rem 1rem;padding-left:.75rem;border-left:2px dashed var(--line)}
.fork-note{font-size:.8125rem;color:var(--muted);margin:.25rem 0}
details.branch{margin:.25rem 0}
details.branch>summary{padding:.25rem 0;overflow-wrap:anywhere}
details.branch[open]>summary{color:var(--fg)}
footer{margin-top:2rem;font-size:.8125rem;color:var(--muted)}
.empty{color:var(--muted);font-style:italic}
@media (max-width:32rem){.page{padding:1rem .5rem 2rem}.entry{padding:.5rem .625rem}.forks{margin-left:.25rem;padding-left:.5rem}}
.markdown{overflow-wrap:anywhere}
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown p,.markdown ul,.markdown ol,.markdown table,.markdown blockquote{margin:.5rem 0}
.markdown h1,.markdown h2,.markdown h3,.markdown h4{font-size:1.05rem;margin:.75rem 0 .25rem;color:var(--fg)}
.markdown blockquote{border-left:3px solid var(--line);padding-left:.75rem;color:var(--muted)}
.markdown table{border-collapse:collapse;display:block;overflow-x:auto}
.markdown th,.markdown td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left}
.markdown th{background:var(--card)}
.markdown code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--card);border-radius:.25rem;padding:0 .2rem}
.markdown pre code{background:none;padding:0}
.markdown pre[data-language]::before{content:attr(data-language);display:block;font-size:.75rem;color:var(--muted);margin-bottom:.25rem}
.markdown a{color:var(--accent)}
.markdown .raw-html{white-space:pre-wrap}
.markdown .math{overflow-x:auto;margin:.5rem 0}
.markdown math{font-size:1.1em}.markdown math[display=block]{font-size:1.2em}
.markdown [data-footnote-ref]::before{content:"["}.markdown [data-footnote-ref]::after{content:"]"}
.markdown .footnotes{font-size:.875rem;color:var(--muted);border-top:1px solid var(--line);margin-top:.75rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.hljs-comment,.hljs-quote{color:#6e7781;font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-type,.hljs-doctag{color:#cf222e}
.hljs-string,.hljs-regexp,.hljs-addition,.hljs-attribute{color:#0a3069}
.hljs-number,.hljs-built_in,.hljs-symbol,.hljs-variable,.hljs-template-variable,.hljs-meta{color:#0550ae}
.hljs-title,.hljs-section,.hljs-name,.hljs-selector-id,.hljs-selector-class{color:#8250df}
.hljs-deletion{color:#82071e}
@media (prefers-color-scheme:dark){.hljs-comment,.hljs-quote{color:#8b949e}.hljs-keyword,.hljs-selector-tag,.hljs-literal,.hljs-type,.hljs-doctag{color:#ff7b72}.hljs-string,.hljs-regexp,.hljs-addition,.hljs-attribute{color:#a5d6ff}.hljs-number,.hljs-built_in,.hljs-symbol,.hljs-variable,.hljs-template-variable,.hljs-meta{color:#79c0ff}.hljs-title,.hljs-section,.hljs-name,.hljs-selector-id,.hljs-selector-class{color:#d2a8ff}.hljs-deletion{color:#ffa198}}
.download{font-size:.875rem}
`;
