/**
 * How big and how long a load run is. `short` runs in `npm test` (CI); `full` is
 * `npm run test:load` (`LOAD_PROFILE=full`). Times are milliseconds from the start of the load
 * phase (after every user signed in and bought a plan).
 */

export type FaultKind = 'web-kill' | 'worker-kill' | 'db-kill' | 'db-freeze' | 'provider-500' | 'provider-429' | 'provider-stall';

export interface FaultPlan {
  kind: FaultKind;
  /** When it starts. */
  at: number;
  /** How long it lasts (a kill: how long the process stays down before it is started again). */
  forMs: number;
}

export interface LoadProfile {
  name: 'short' | 'full';
  users: number;
  /** Of the users, how many register (and confirm the mailed code) instead of signing in. */
  newcomers: number;
  admins: number;
  /** Sign-ins and first purchases are spread over this long. */
  rampMs: number;
  /** The load phase: users keep working while the faults come and go (one after another: a slow restart moves the rest). */
  loadMs: number;
  faults: FaultPlan[];
  /** The load goes on at least this long after the last fault is over (a slow restart moves it): no request may fail then. */
  quietMs: number;
  /** A user's pause between two actions (uniform between the two). */
  thinkMs: [number, number];
  /** Share of actions that start a generation (image, video, text). */
  generateShare: number;
  /** Longest wait, after the users stop, for runs, answers, holds and refunds to end. */
  drainMs: number;
  /** Whole test's limit. */
  timeoutMs: number;
}

const FAULTS_SHORT: FaultPlan[] = [
  // The kills first: what they leave behind is swept up by sweepers on a one-minute cadence.
  { kind: 'web-kill', at: 2_000, forMs: 2_000 },
  { kind: 'worker-kill', at: 5_000, forMs: 1_000 },
  { kind: 'db-kill', at: 15_000, forMs: 0 },
  { kind: 'db-freeze', at: 19_000, forMs: 10_000 },
  { kind: 'provider-500', at: 32_000, forMs: 3_000 },
  { kind: 'provider-429', at: 37_000, forMs: 3_000 },
  { kind: 'provider-stall', at: 42_000, forMs: 5_000 },
];

const FAULTS_FULL: FaultPlan[] = [
  { kind: 'web-kill', at: 5_000, forMs: 3_000 },
  { kind: 'worker-kill', at: 15_000, forMs: 2_000 },
  { kind: 'db-kill', at: 30_000, forMs: 0 },
  { kind: 'db-freeze', at: 40_000, forMs: 10_000 },
  { kind: 'provider-500', at: 60_000, forMs: 6_000 },
  { kind: 'provider-429', at: 72_000, forMs: 6_000 },
  { kind: 'provider-stall', at: 84_000, forMs: 8_000 },
  { kind: 'db-kill', at: 100_000, forMs: 0 },
  { kind: 'web-kill', at: 106_000, forMs: 3_000 },
];

export const PROFILES: Record<LoadProfile['name'], LoadProfile> = {
  short: {
    name: 'short',
    users: 40,
    newcomers: 4,
    admins: 2,
    rampMs: 4_000,
    loadMs: 55_000,
    faults: FAULTS_SHORT,
    quietMs: 8_000,
    thinkMs: [300, 1_200],
    generateShare: 0.1,
    drainMs: 150_000,
    timeoutMs: 400_000,
  },
  full: {
    name: 'full',
    users: 200,
    newcomers: 20,
    admins: 6,
    rampMs: 15_000,
    loadMs: 130_000,
    faults: FAULTS_FULL,
    quietMs: 15_000,
    thinkMs: [1_000, 3_000],
    generateShare: 0.05,
    drainMs: 240_000,
    timeoutMs: 900_000,
  },
};

/** The profile `LOAD_PROFILE` names (`short` unless it says `full`). */
export function chosenProfile(): LoadProfile {
  const name = process.env.LOAD_PROFILE ?? 'short';
  if (name !== 'short' && name !== 'full') throw new Error(`LOAD_PROFILE must be short or full, not ${name}`);
  return PROFILES[name];
}

