import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { boot } from "./state/boot";
import { App } from "./ui/App";
import "./ui/app.css";

const root = createRoot(document.getElementById("root") as HTMLElement);
void boot().then(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
