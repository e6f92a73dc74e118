import { Component, type ReactNode } from "react";

type Props = {
  children: ReactNode;
  /** What shows instead when the children threw while rendering; `retry` renders them again. */
  fallback: (error: unknown, retry: () => void) => ReactNode;
  /** A new value renders the children again (the row or chat they show changed). */
  resetKey?: unknown;
};

type State = { failed: { error: unknown } | null; resetKey: unknown };

/**
 * Catches a render failure of one part of the screen (a message, the composer) so it shows a plain
 * line in its place and the rest stays (issue 24, item 11): no input may take down the whole app.
 */
export class RenderBoundary extends Component<Props, State> {
  override state: State = { failed: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: { error } };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { failed: null, resetKey: props.resetKey };
  }

  private readonly retry = () => this.setState({ failed: null });

  override render() {
    const { failed } = this.state;
    return failed ? this.props.fallback(failed.error, this.retry) : this.props.children;
  }
}

/** An error's message for a plain line of text. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
