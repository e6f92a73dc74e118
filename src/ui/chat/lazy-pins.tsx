import { type ComponentProps, lazy } from "react";
import { LazyPart } from "../common/LazyPart";
import type { ChatInfoDialog as ChatInfoImpl } from "./ChatInfoDialog";
import type { PassagePinButton as PassagePinImpl } from "./PassagePinButton";
import type { PinnedPassages as PinnedPassagesImpl } from "./PinnedPassages";

/**
 * Pins of passages and the chat's info (issue 29), as chunks of their own: none of them is on a
 * plain chat's first screen. The passage list under a message loads with the first pinned passage,
 * the floating "Keep word for word" with the first selection in a message, the chat's info when it
 * opens. Same names and props as the components they stand for.
 */
const PinnedPassagesPart = lazy(() => import("./PinnedPassages").then((m) => ({ default: m.PinnedPassages })));
const PassagePinPart = lazy(() => import("./PassagePinButton").then((m) => ({ default: m.PassagePinButton })));
const ChatInfoPart = lazy(() => import("./ChatInfoDialog").then((m) => ({ default: m.ChatInfoDialog })));

export function PinnedPassages(props: ComponentProps<typeof PinnedPassagesImpl>) {
  return (
    <LazyPart>
      <PinnedPassagesPart {...props} />
    </LazyPart>
  );
}

export function PassagePinButton(props: ComponentProps<typeof PassagePinImpl>) {
  return (
    <LazyPart>
      <PassagePinPart {...props} />
    </LazyPart>
  );
}

export function ChatInfoDialog(props: ComponentProps<typeof ChatInfoImpl>) {
  return (
    <LazyPart>
      <ChatInfoPart {...props} />
    </LazyPart>
  );
}
