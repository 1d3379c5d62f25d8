import { Component, type ErrorInfo, type ReactNode } from 'react';
import { FALLBACK_FAILURE_TEXT } from '../lib/api-error.js';
import { errorLog } from '../lib/error-log.js';
import { LoadFailure } from './query-state.js';

interface State {
  failed: boolean;
}

/**
 * Keeps a render error inside one signed-in area: the area shows "Something went wrong." with a way
 * to try again instead of a blank page, and the error goes to the in-memory log.
 */
export class AreaErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    const message = error instanceof Error ? error.message : String(error);
    errorLog.add({ message: `${message}${info.componentStack ? ` (render)` : ''}` });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <LoadFailure sx={{ my: 4 }} onRetry={() => this.setState({ failed: false })}>
        {FALLBACK_FAILURE_TEXT}
      </LoadFailure>
    );
  }
}
