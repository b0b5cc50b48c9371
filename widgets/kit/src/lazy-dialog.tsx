import { useEffect, useState } from 'react';
import type * as DialogKit from './dialog.tsx';

let dialogKit: typeof DialogKit | null = null;
let dialogKitLoading: Promise<typeof DialogKit> | null = null;

/**
 * Fetches the kit's dialog (`@app/kit/dialog`: a host chunk with Radix's layers, ≈14 KB gz) the
 * first time a dialog is about to open, not with the page: most visits open none. Call it on
 * hover and focus of what opens one, so the chunk is usually there by the click. A failed fetch
 * is tried again next time.
 */
export function loadDialogKit(): Promise<typeof DialogKit> {
  dialogKitLoading ??= import('./dialog.tsx').then(
    (kit) => (dialogKit = kit),
    (err: unknown) => {
      dialogKitLoading = null;
      throw err;
    },
  );
  return dialogKitLoading;
}

/** Starts fetching the dialog's chunk before a click needs it (errors wait for the real open). */
export const preloadDialogKit = (): void => {
  loadDialogKit().catch(() => undefined);
};

/** The kit's `Dialog`, drawn once its chunk is there; if the chunk cannot be fetched, the dialog closes. */
export function LazyDialog(props: DialogKit.DialogProps) {
  const [kit, setKit] = useState(dialogKit);
  const { onClose } = props;
  useEffect(() => {
    if (!kit) loadDialogKit().then(setKit, () => onClose?.());
  }, [kit, onClose]);
  return kit ? <kit.Dialog {...props} /> : null;
}
