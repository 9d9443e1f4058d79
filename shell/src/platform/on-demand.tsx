import {
  Component,
  lazy,
  Suspense,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';
import { reportClientError } from '../errors/error-reporting.js';

/** What a part shows when its code could not load: `retry` loads it again. */
export type FailedPart = ComponentType<{ retry: () => void }>;

interface BoundaryProps {
  part: string;
  failed: ReactNode;
  children: ReactNode;
}

/** Catches the part's failed load (or a crash while it renders), reports it and shows `failed` in its place. */
class PartBoundary extends Component<BoundaryProps, { error: boolean }> {
  override state = { error: false };

  static getDerivedStateFromError() {
    return { error: true };
  }

  override componentDidCatch(error: unknown) {
    reportClientError({
      kind: 'boundary',
      origin: 'shell',
      message: `${this.props.part}: ${error instanceof Error ? error.message : String(error)}`,
      stack: error instanceof Error ? error.stack : undefined,
    });
  }

  override render() {
    return this.state.error ? this.props.failed : this.props.children;
  }
}

/**
 * A part of a page whose code loads when it is first shown (the account menu, the toasts, the idle warning, the
 * captcha's challenge, the security centre). Without a boundary of its own, a chunk the network did not deliver
 * (a dropped connection, a build replaced under an open page) crashed the whole page into the error page. Now the
 * failure is reported (kind `boundary`, origin `shell`) and only the part gives way: to nothing for a part the page
 * can do without, to `Failed` with a way to try again for one it needs. Trying again asks for the chunk again (the
 * bundler forgets a chunk that failed; React.lazy would not, so a new one is made).
 *
 * `load` keeps the shape of a React.lazy loader, `() => import(…).then((m) => ({ default: m.Name }))`: the byte walk
 * (bench/lib/route-bytes.mjs ON_DEMAND_COMPONENTS) finds the parts left out of a first load by it.
 */
// `ComponentType<any>` as React.lazy's own signature has it: the component's props are inferred through the loader.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function onDemand<T extends ComponentType<any>>(
  part: string,
  load: () => Promise<{ default: T }>,
  { loading = null, Failed }: { loading?: ReactNode; Failed?: FailedPart } = {},
): ComponentType<ComponentProps<T>> {
  let Loaded = lazy(load);
  function OnDemandPart(props: ComponentProps<T>) {
    const [attempt, setAttempt] = useState(0);
    const retry = () => {
      Loaded = lazy(load);
      setAttempt((n) => n + 1);
    };
    return (
      <PartBoundary key={attempt} part={part} failed={Failed ? <Failed retry={retry} /> : null}>
        <Suspense fallback={loading}>
          <Loaded {...props} />
        </Suspense>
      </PartBoundary>
    );
  }
  OnDemandPart.displayName = `OnDemand(${part})`;
  return OnDemandPart;
}
