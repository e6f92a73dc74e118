// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ProviderConfig } from "../../providers/types";
import { type EndpointPatch, ProviderBlock } from "./ProviderBlock";

vi.mock("../../state/settings/settings-actions", () => ({ reportUnsavedProvider: vi.fn() }));

afterEach(cleanup);

const OPENAI: ProviderConfig = {
  id: "openai",
  name: "OpenAI",
  api: "openai-chat",
  baseUrl: "https://api.openai.com/v1",
  apiKey: "",
  customModels: [],
  builtIn: true,
};

function setup(provider: ProviderConfig = OPENAI) {
  const commits: EndpointPatch[] = [];
  const view = render(
    <div>
      <ProviderBlock
        provider={provider}
        keyLabel="OpenAI API key"
        urlLabel="OpenAI base URL"
        defaultBaseUrl="https://api.openai.com/v1"
        onCommit={(p) => commits.push(p)}
      />
      <button type="button">Elsewhere</button>
    </div>,
  );
  const key = screen.getByLabelText("OpenAI API key");
  const url = screen.getByLabelText("OpenAI base URL");
  const elsewhere = screen.getByRole("button", { name: "Elsewhere" });
  return { commits, key, url, elsewhere, view };
}

describe("ProviderBlock: a key is committed only with its base URL", () => {
  it("moving from the key to the base URL commits nothing; leaving the block commits the pair once", () => {
    const { commits, key, url, elsewhere } = setup();
    fireEvent.change(key, { target: { value: " sk-or-v1-new " } });
    fireEvent.blur(key, { relatedTarget: url });
    expect(commits).toEqual([]);
    fireEvent.change(url, { target: { value: "https://openrouter.ai/api/v1" } });
    fireEvent.blur(url, { relatedTarget: elsewhere });
    fireEvent.blur(url, { relatedTarget: elsewhere });
    expect(commits).toEqual([
      { apiKey: "sk-or-v1-new", baseUrl: "https://openrouter.ai/api/v1", plainHttpOrigin: undefined },
    ]);
  });

  it("leaving the window (to copy the base URL) commits nothing; a click on plain text in the page does", async () => {
    const { commits, key } = setup();
    fireEvent.change(key, { target: { value: "sk-or-new" } });
    const hasFocus = vi.spyOn(document, "hasFocus").mockReturnValue(false);
    fireEvent.blur(key, { relatedTarget: null });
    await new Promise((r) => setTimeout(r, 0));
    expect(commits).toEqual([]);
    hasFocus.mockReturnValue(true);
    fireEvent.blur(key, { relatedTarget: null });
    await vi.waitFor(() => expect(commits).toHaveLength(1));
    expect(commits[0]).toMatchObject({ apiKey: "sk-or-new" });
    hasFocus.mockRestore();
  });

  it("closing the dialog (unmount) commits a pair still being edited", () => {
    const { commits, key, view } = setup();
    fireEvent.change(key, { target: { value: "sk-typed-then-closed" } });
    view.unmount();
    expect(commits).toEqual([
      { apiKey: "sk-typed-then-closed", baseUrl: "https://api.openai.com/v1", plainHttpOrigin: undefined },
    ]);
  });

  it("an empty built-in base URL means the official one", () => {
    const { commits, url } = setup({ ...OPENAI, baseUrl: "https://openrouter.ai/api/v1", apiKey: "k" });
    fireEvent.change(url, { target: { value: "" } });
    fireEvent.keyDown(url, { key: "Enter" });
    expect(commits).toEqual([{ apiKey: "k", baseUrl: "https://api.openai.com/v1", plainHttpOrigin: undefined }]);
  });

  it("plain http to a remote host is committed only after the box is ticked, with that origin", () => {
    const { commits, url, elsewhere } = setup();
    fireEvent.change(url, { target: { value: "http://10.0.0.5:8080/v1" } });
    fireEvent.blur(url, { relatedTarget: elsewhere });
    expect(commits).toEqual([]);
    expect(screen.getByRole("button", { name: "Save OpenAI" })).toHaveProperty("disabled", true);
    fireEvent.click(screen.getByRole("checkbox", { name: /unencrypted/ }));
    fireEvent.click(screen.getByRole("button", { name: "Save OpenAI" }));
    expect(commits).toEqual([
      { apiKey: "", baseUrl: "http://10.0.0.5:8080/v1", plainHttpOrigin: "http://10.0.0.5:8080" },
    ]);
  });

  it("a custom provider's base URL cannot be cleared", () => {
    const { commits, url, elsewhere } = setup({
      ...OPENAI,
      id: "custom-1",
      name: "Box",
      builtIn: false,
      baseUrl: "http://localhost:1234/v1",
    });
    fireEvent.change(url, { target: { value: "  " } });
    fireEvent.blur(url, { relatedTarget: elsewhere });
    expect(commits).toEqual([]);
    expect(screen.getByRole("alert").textContent).toBe("Box needs a base URL: without one nothing is sent.");
  });
});
