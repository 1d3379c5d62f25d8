/** Placeholder shell: the web issue replaces it with the router, layout and features. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Data Platform</h1>
      <p>
        The API is running. Its documentation is at <a href="/api/v1/docs">/api/v1/docs</a>.
      </p>
    </main>
  );
}
