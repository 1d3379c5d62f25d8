/**
 * A JSON call of the app's API at `base` as `bearer`, timed: its status, the milliseconds it took
 * (fetch and body) and its parsed body (`{}` when empty). The studio benches call through it.
 */
export function jsonCaller<Body>(base: string, bearer: Record<string, string>) {
  return async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const started = performance.now();
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { ...bearer, ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      ms: performance.now() - started,
      body: (text ? JSON.parse(text) : {}) as Body,
    };
  };
}
