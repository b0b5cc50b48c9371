import * as RadixDialog from '@radix-ui/react-dialog';
import { useState, type ReactNode } from 'react';

export interface DialogProps {
  title: string;
  children?: ReactNode;
  /** The buttons under the body. */
  footer?: ReactNode;
  /** Called on Escape, a click outside or a close button; not called when `dismissible` is false. */
  onClose?: () => void;
  /** False for a window the user must answer (Escape and clicks outside do nothing). */
  dismissible?: boolean;
  open?: boolean;
  className?: string;
  /** Id of the element that describes the window (its body, by default none). */
  describedBy?: string;
}

/**
 * Where focus goes when the window closes: back to what had it when the window opened (Radix
 * returns it only to a Radix trigger; ours are opened by state).
 */
function useReturnFocus(): (event: Event) => void {
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  return (event) => {
    event.preventDefault();
    if (opener?.isConnected) opener.focus();
  };
}

/**
 * A modal window (Radix Dialog: focus moves in, stays in and comes back, Escape closes, the page
 * behind is inert and does not scroll), drawn with the kit's `.modal` styles.
 */
export function Dialog({ title, children, footer, onClose, dismissible = true, open = true, className = '', describedBy }: DialogProps) {
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => !next && dismissible && onClose?.()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="modal-backdrop">
          <RadixDialog.Content className={`modal ${className}`.trim()} aria-describedby={describedBy} onEscapeKeyDown={block} onPointerDownOutside={block} onInteractOutside={block} onCloseAutoFocus={returnFocus}>
            <RadixDialog.Title className="modal__title">{title}</RadixDialog.Title>
            {children && <div className="modal__body">{children}</div>}
            {footer && <div className="modal__footer">{footer}</div>}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** A button that closes the dialog it is in (it calls the dialog's `onClose`). */
export function DialogClose({ children }: { children: ReactNode }) {
  return <RadixDialog.Close asChild>{children}</RadixDialog.Close>;
}

/**
 * A full-screen window the user must answer (the email confirmation): the same Radix Dialog,
 * not dismissible, drawn as `.overlay-screen` with `children` as its content. Its heading is a
 * `DialogTitle` inside `children`.
 */
export function ScreenDialog({ children, describedBy }: { children: ReactNode; describedBy?: string }) {
  const block = (event: Event) => event.preventDefault();
  const returnFocus = useReturnFocus();
  return (
    <RadixDialog.Root open>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="overlay-screen">
          <RadixDialog.Content className="overlay-screen__content" aria-describedby={describedBy} onEscapeKeyDown={block} onPointerDownOutside={block} onInteractOutside={block} onCloseAutoFocus={returnFocus}>
            {children}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The heading of a `ScreenDialog` (an `h1` that names the window). */
export function DialogTitle({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <RadixDialog.Title asChild>
      <h1 className={className}>{children}</h1>
    </RadixDialog.Title>
  );
}
