/**
 * The e2e mock provider server (e2e/mock-server, see its README) as a child process for benches
 * that send messages: `startMock(root)` and `control(mock, path, body)` for its HTTP control API.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

/** `node e2e/mock-server/cli.mjs --port 0`; resolves to { url, anthropicBaseUrl, openaiBaseUrl, stop }. */
export function startMock(root) {
  const child = spawn(process.execPath, [join(root, "e2e/mock-server/cli.mjs"), "--port", "0"], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`mock server did not start in 20 s: ${stderr}`));
    }, 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const m = /grove-mock listening (\{.*\})/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ ...JSON.parse(m[1]), stop });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`mock server exited (${code}): ${stderr}`));
    });
  });
}

/** GET (no body) or POST (JSON body) to the mock's control API; resolves to the parsed answer. */
export async function control(mock, path, body) {
  const res = await fetch(`${mock.url}/__mock/${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`mock ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

export const BENCH_KEYS = { anthropic: "sk-ant-bench-key", openai: "sk-openai-bench-key" };

/**
 * Points the app at the mock (both providers, bench keys) through Settings, like e2e/app.ts
 * openConfigured, and picks `model` ("provider::id"). `automaticCompaction: false` unticks it.
 */
export async function configureApp(page, url, mock, { model = "openai::gpt-4o", automaticCompaction = true } = {}) {
  await page.goto(`${url}/`);
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Anthropic base URL").fill(mock.anthropicBaseUrl);
  await dialog.getByLabel("OpenAI base URL").fill(mock.openaiBaseUrl);
  await dialog.getByLabel("Anthropic API key").fill(BENCH_KEYS.anthropic);
  await dialog.getByLabel("OpenAI API key").fill(BENCH_KEYS.openai);
  if (!automaticCompaction) await dialog.getByRole("checkbox", { name: "Automatic compaction" }).uncheck();
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "hidden" });
  // The picker is a searchable combobox (as e2e/app.ts chooseModel drives it).
  const picker = page.getByRole("combobox", { name: "Model" });
  await picker.click();
  await picker.fill(model.slice(model.indexOf("::") + 2));
  await page.getByRole("listbox", { name: "Models" }).locator(`[role="option"][data-value="${model}"]`).click();
  if ((await picker.getAttribute("data-model")) !== model) throw new Error(`model ${model} not selected`);
}
