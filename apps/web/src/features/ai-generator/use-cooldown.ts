import { useCallback, useEffect, useState } from 'react';

/** A countdown in whole seconds: `start(n)` counts n down to 0, one a second. */
export function useCooldown() {
  const [seconds, setSeconds] = useState(0);
  const active = seconds > 0;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, [active]);
  const start = useCallback((n: number) => setSeconds(n), []);
  return { seconds, start };
}
