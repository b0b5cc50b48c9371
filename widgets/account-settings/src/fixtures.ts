import { NOTICE_LABELS, type NoticeSettings } from '@app/contracts/privacy';

/** The notices as the server lists them: the charge notices required, the others on unless turned off. */
export function noticesFixture(off: readonly string[] = []): NoticeSettings {
  return {
    notices: (['trial_end', 'renewal', 'renewal_failed', 'plan_ended'] as const).map((kind) => ({
      kind,
      label: NOTICE_LABELS[kind],
      required: kind === 'trial_end' || kind === 'renewal',
      enabled: !off.includes(kind),
    })),
  };
}
