import { Skeleton } from '@app/kit';

/** Three plan cards' places while the plans load. */
export function PlansSkeleton() {
  return (
    <ul className="plans" aria-busy="true">
      {[0, 1, 2].map((i) => (
        <li key={i} className="plan">
          <div className="plan__inner">
            <Skeleton lines={5} />
          </div>
        </li>
      ))}
    </ul>
  );
}
