import type { ReactNode } from 'react';

/** Props of {@link Page}. */
export interface PageProps {
  /** The page's heading (its h1); the shell sets the document title separately. */
  title: string;
  children?: ReactNode;
  /** Marks the page for tests and styling: `data-page="<id>"`. */
  pageId?: string;
}

/** A page: its h1 and its content, centred in the shell's main area. */
export function Page({ title, children, pageId }: PageProps) {
  return (
    <section className="hr-page" data-page={pageId} aria-labelledby={pageId ? `${pageId}-title` : undefined}>
      <h1 className="hr-page__title" id={pageId ? `${pageId}-title` : undefined}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/** Props of {@link Card}. */
export interface CardProps {
  children: ReactNode;
  className?: string;
}

/** A raised panel grouping one form or one block of content. */
export function Card({ children, className }: CardProps) {
  return <div className={['hr-card', className].filter(Boolean).join(' ')}>{children}</div>;
}

/** A vertical stack with the kit's spacing between its children. */
export function Stack({ children, className }: CardProps) {
  return <div className={['hr-stack', className].filter(Boolean).join(' ')}>{children}</div>;
}

/** Small, muted text for notices under a form (legal notes such as the reCAPTCHA notice). */
export function FinePrint({ children, className }: CardProps) {
  return <p className={['hr-fine-print', className].filter(Boolean).join(' ')}>{children}</p>;
}
