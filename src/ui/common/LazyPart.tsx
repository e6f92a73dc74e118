import { Component, type ReactNode, Suspense } from "react";
import { CHUNK_LOAD_FAILED } from "../../state/app/chunk-load";

type State = { failed: boolean };

/**
 * Catches a part whose code could not be fetched (offline before it was cached, or a tab left open
 * across an update whose old chunks are gone) and says so in its place; without it the error
 * would unmount the whole app to a blank page.
 */
class ChunkBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p role="alert" className="lazy-part-failed">
        {CHUNK_LOAD_FAILED}{" "}
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </p>
    );
  }
}

/**
 * A part of the screen loaded on demand (React.lazy inside): `standIn` (default nothing) while it
 * loads, a clear line if it cannot.
 */
export function LazyPart({ children, standIn = null }: { children: ReactNode; standIn?: ReactNode }) {
  return (
    <ChunkBoundary>
      <Suspense fallback={standIn}>{children}</Suspense>
    </ChunkBoundary>
  );
}
