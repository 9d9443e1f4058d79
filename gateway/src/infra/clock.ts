/** Time source; tests inject a movable clock to prove timeouts (S28) without waiting. */
export interface Clock {
  now(): number;
}

/** The system clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  constructor(private current = Date.UTC(2025, 0, 1)) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
