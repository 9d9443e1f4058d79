// Open-loop load at a fixed rate with one scheduler: arrival i is due at t0 + i · 1000/rate ms, and a single timer
// loop sends every arrival that is due, each on a kept-alive connection (a new one only while all are busy). Its
// latency runs from the **scheduled** time, not from when the request left: if the generator itself falls behind,
// that counts against the figure instead of hiding queueing (no coordinated omission), and the generator's own lag
// (send time − scheduled time) is reported beside it, so a tail can be told apart: the server's or the generator's.
//
// It replaces one autocannon instance per request-per-second (≈ 115 instances, each with its own per-second timers,
// on the same two cores as the server), whose arrivals bunched into bursts.
import { Agent, request as httpRequest } from 'node:http';

/**
 * @typedef {{method: string, path: string, headers: Record<string,string>, body?: string}} PacedRequest
 * @typedef {{scheduledMs: number[], sentLagMs: number[], latencyMs: number[], answerStatus: number[],
 *   statuses: Record<string,number>, errors: number, dropped: number, elapsedMs: number}} PacedResult
 */

/**
 * Sends `Math.round(rate · durationS)` requests at a fixed rate and waits for every answer (each bounded by
 * `timeoutMs`). At most `maxInFlight` requests are outstanding: an arrival beyond that is counted as dropped, never
 * queued, so the run is bounded in count, connections and time.
 * @param {{url: string, rate: number, durationS: number, makeRequest: (i: number) => PacedRequest,
 *   maxInFlight?: number, timeoutMs?: number}} options
 * @returns {Promise<PacedResult>}
 */
export function runPaced({ url, rate, durationS, makeRequest, maxInFlight = 256, timeoutMs = 30_000 }) {
  const target = new URL(url);
  const total = Math.max(1, Math.round(rate * durationS));
  const intervalMs = 1000 / rate;
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  /** @type {PacedResult} */
  const result = {
    scheduledMs: [],
    sentLagMs: [],
    latencyMs: [],
    answerStatus: [],
    statuses: {},
    errors: 0,
    dropped: 0,
    elapsedMs: 0,
  };
  let inFlight = 0;
  let settled = 0;
  let next = 0;
  return new Promise((resolve) => {
    const t0 = performance.now() + 20;
    const finishOne = () => {
      inFlight -= 1;
      settled += 1;
      if (settled === total) {
        result.elapsedMs = performance.now() - t0;
        agent.destroy();
        resolve(result);
      }
    };
    const send = (i) => {
      const scheduled = t0 + i * intervalMs;
      result.scheduledMs.push(scheduled - t0);
      if (inFlight >= maxInFlight) {
        result.dropped += 1;
        inFlight += 1;
        finishOne();
        return;
      }
      inFlight += 1;
      let done = false;
      const finish = () => {
        if (done) return false;
        done = true;
        finishOne();
        return true;
      };
      const r = makeRequest(i);
      result.sentLagMs.push(performance.now() - scheduled);
      const req = httpRequest(
        {
          agent,
          host: target.hostname,
          port: target.port,
          method: r.method,
          path: r.path,
          headers:
            r.body === undefined ? r.headers : { ...r.headers, 'content-length': Buffer.byteLength(r.body) },
          timeout: timeoutMs,
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (!finish()) return;
            result.latencyMs.push(performance.now() - scheduled);
            result.answerStatus.push(res.statusCode);
            result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', () => {
        if (finish()) result.errors += 1;
      });
      req.end(r.body);
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && t0 + next * intervalMs <= now) send(next++);
      if (next < total) setTimeout(tick, Math.max(0, t0 + next * intervalMs - performance.now()));
    };
    setTimeout(tick, Math.max(0, t0 - performance.now()));
  });
}
