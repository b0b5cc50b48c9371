import { MediaIcon, WordsIcon } from '@app/kit';
import { descriptionParts } from './plan.ts';

/** A plan's description lines with their icons (`[[words]]`, `[[media]]`). */
export function PlanDescription({ lines }: { lines: readonly string[] }) {
  return (
    <ul className="plan__features">
      {lines.map((line, i) => (
        <li key={`${String(i)}:${line}`}>
          {descriptionParts(line).map((part, j) =>
            part.type === 'text' ? <span key={j}>{part.text}</span> : part.icon === 'words' ? <WordsIcon key={j} /> : <MediaIcon key={j} />,
          )}
        </li>
      ))}
    </ul>
  );
}
