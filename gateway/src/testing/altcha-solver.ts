import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Test } from 'supertest';

/** Solves a proof-of-work challenge as the widget does (the real library, end to end): the widget's payload. */
export async function solveAltcha(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  const { parameters, signature } = challenge;
  return Buffer.from(JSON.stringify({ challenge: { parameters, signature }, solution })).toString('base64');
}

/** `GET CaptchaChallenge?action=` for this browser's session. */
export async function altchaChallengeFor(
  b: { agent: { get(url: string): Test } },
  action: string,
): Promise<Challenge> {
  const res = await b.agent.get(`/api/Account/CaptchaChallenge?action=${action}`).expect(200);
  return res.body as Challenge;
}
