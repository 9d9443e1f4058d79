import { expect, it, vi } from 'vitest';

// Each group of the app's modules is evaluated in a task of its own (issue 10, Total Blocking Time): the mocks
// record when a group is evaluated and when bootstrap gives the main thread back.
const log = vi.hoisted(() => [] as string[]);
const evaluated = (name: string) => {
  log.push(name);
  return {};
};
vi.mock('./platform/yield-to-main', () => ({
  yieldToMain: () => {
    log.push('yield');
    return Promise.resolve();
  },
}));
vi.mock('react-dom/client', () => evaluated('react-dom'));
vi.mock('@reduxjs/toolkit/query/react', () => evaluated('rtk'));
vi.mock('shared-contracts', () => evaluated('contracts'));
vi.mock('shared-contracts/api', () => evaluated('api'));
vi.mock('react-router', () => evaluated('router'));
vi.mock('react-i18next', () => evaluated('i18n'));
vi.mock('./start-app', () => ({
  ...evaluated('start-app'),
  startApp: () => {
    log.push('started');
    return Promise.resolve();
  },
}));

it('evaluates React DOM, RTK, the schemas, the API, router + i18n and the app each after a yield', async () => {
  await import('./bootstrap');
  await vi.waitFor(() => expect(log).toContain('started'));
  expect(log).toEqual([
    'react-dom',
    'yield',
    'rtk',
    'yield',
    'contracts',
    'yield',
    'api',
    'yield',
    'router',
    'i18n',
    'yield',
    'start-app',
    'started',
  ]);
});
