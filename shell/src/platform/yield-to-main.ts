/**
 * Ends the current task and resumes in a new one, so the browser can handle input and paint in between (a task
 * longer than 50 ms blocks both: Total Blocking Time). `scheduler.yield()` where the browser has it (the
 * continuation runs before other queued work); else a message on a channel, which, unlike `setTimeout`, is neither
 * clamped to 4 ms when nested nor throttled in a background tab.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
