/**
 * A server the bench runs in a child process answers by messages: `replies(child, label)` gives
 * the function that waits for the next message `pick` finds something in, and rejects if the child
 * exits first.
 */
import type { ChildProcess } from 'node:child_process';

export function replies<M>(child: ChildProcess, label: string) {
  return <T>(pick: (message: M) => T | undefined) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the ${label} exited (${code})`));
      const onMessage = (message: M) => {
        const picked = pick(message);
        if (picked === undefined) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(picked);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
}
