// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { onDemand, type FailedPart } from './on-demand.js';

/** A loader that fails while `network.up` is false, as a chunk the network does not deliver; counts its calls. */
function chunk(name: string) {
  const network = { up: false, calls: 0 };
  const load = () => {
    network.calls += 1;
    return network.up
      ? Promise.resolve({ default: ({ who }: { who: string }) => <p>{`${name} for ${who}`}</p> })
      : Promise.reject(new Error(`Loading chunk ${name} failed.`));
  };
  return { network, load };
}

const TryAgain: FailedPart = ({ retry }) => <button onClick={retry}>Try again</button>;

let reports: { kind: string; origin?: string; message: string }[];

beforeEach(() => {
  reports = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((_url: string, init: RequestInit) => {
      reports.push(JSON.parse(init.body as string) as (typeof reports)[number]);
      return Promise.resolve(new Response(null, { status: 202 }));
    }),
  );
  // React logs the errors its boundaries catch; the test reads the reports instead.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('a part loaded on demand', () => {
  it('renders the loaded component with its props', async () => {
    const { network, load } = chunk('menu');
    network.up = true;
    const Menu = onDemand('menu', load);
    render(<Menu who="Ada" />);
    expect(await screen.findByText('menu for Ada')).toBeTruthy();
    expect(reports).toEqual([]);
  });

  it('gives way alone when its code does not arrive: the page around it stays, and the failure is reported', async () => {
    const { load } = chunk('menu-chunk');
    const Menu = onDemand('account-menu', load);
    render(
      <main>
        <h1>Account</h1>
        <Menu who="Ada" />
      </main>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByRole('heading', { name: 'Account' })).toBeTruthy();
    expect(screen.queryByText(/menu-chunk for/)).toBeNull();
    expect(reports).toEqual([
      expect.objectContaining({
        kind: 'boundary',
        origin: 'shell',
        message: 'account-menu: Loading chunk menu-chunk failed.',
      }),
    ]);
  });

  it('shows Failed in its place, and Try again asks for the code again and shows the part once it arrives', async () => {
    const { network, load } = chunk('centre');
    const Centre = onDemand('security-centre', load, { Failed: TryAgain });
    render(<Centre who="Ada" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    // Still down: asked again (React.lazy alone would have kept the first failure), and Failed again.
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(network.calls).toBe(2);
    network.up = true;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('centre for Ada')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(network.calls).toBe(3);
  });

  it('shows what it is given while the code loads', async () => {
    type Module = { default: () => React.JSX.Element };
    let arrive: (module: Module) => void = () => undefined;
    const Part = onDemand('slow', () => new Promise<Module>((resolve) => (arrive = resolve)), {
      loading: <p>Loading…</p>,
    });
    render(<Part />);
    expect(screen.getByText('Loading…')).toBeTruthy();
    act(() => arrive({ default: () => <p>Here</p> }));
    expect(await screen.findByText('Here')).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });
});
