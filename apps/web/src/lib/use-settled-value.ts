import { useEffect, useState } from 'react';

/** `value` once it has stopped changing for `delay` ms: a search asks the server when typing pauses. */
export function useSettledValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
