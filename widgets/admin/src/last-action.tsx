import { createContext, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

/**
 * The actions of one screen (a save, an upload, a deletion, an edit of the form), numbered as
 * they start. A status message belongs to the action it reports: it shows while that action is
 * the last one, so a later save, a new error or a change of the form takes it away.
 */
export interface LastAction {
  /** The number of the last action; 0 before any (what the screen opened with still shows). */
  last: number;
  /** Starts an action: messages of earlier ones stop showing. Answers its number. */
  begin: () => number;
}

const Scope = createContext<LastAction | null>(null);

function useCounter(): LastAction {
  const counter = useRef(0);
  const [last, setLast] = useState(0);
  return useMemo(
    () => ({
      last,
      begin: () => {
        counter.current += 1;
        setLast(counter.current);
        return counter.current;
      },
    }),
    [last],
  );
}

/** The screen whose actions share one status: a message of one of them hides the others'. */
export function ActionScope({ children }: { children: ReactNode }) {
  return <Scope.Provider value={useCounter()}>{children}</Scope.Provider>;
}

/** The actions of the screen around, or outside any, of this component alone. */
export function useLastAction(): LastAction {
  const own = useCounter();
  return useContext(Scope) ?? own;
}

/** A message of one action: shown while that action is the screen's last. */
export function useActionMessage<M>(): { message: M | null; begin: () => number; show: (action: number, message: M) => void } {
  const actions = useLastAction();
  const [state, setState] = useState<{ action: number; message: M } | null>(null);
  return {
    message: state && state.action === actions.last ? state.message : null,
    begin: actions.begin,
    show: (action, message) => setState({ action, message }),
  };
}
