/**
 * Runs `run` once the page is idle (within 2 s), for work that must not stand in the way of what the
 * member waits for: a chunk fetched ahead, the browser's date data. Half a second on where the
 * browser cannot tell idle time (Safari has no `requestIdleCallback`).
 */
export const whenIdle = (run: () => void): unknown =>
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback(run, { timeout: 2000 })
    : setTimeout(run, 500);
