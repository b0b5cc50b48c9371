import { composeStories, setProjectAnnotations } from '@storybook/react';
import type { Meta } from '@storybook/react-vite';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import * as preview from './.storybook/preview.tsx';

/**
 * Every story of every widget (and of the pages' skeletons of them), rendered in jsdom through Storybook's portable stories with the
 * same decorators as the Storybook. Fails on a render error and on anything React reports
 * through `console.error` (failed renders, missing keys, invalid DOM nesting).
 */
type StoryModule = Record<string, unknown> & { default: Meta };
const modules = import.meta.glob<StoryModule>(['../widgets/*/src/**/*.stories.tsx', '../host-pages/stories/*.stories.tsx'], { eager: true });

const annotations = setProjectAnnotations(preview);
beforeAll(annotations.beforeAll);
afterEach(() => {
  vi.restoreAllMocks();
});

const files = Object.entries(modules).map(([file, mod]) => ({ file: file.replace('../widgets/', '').replace('../', ''), mod }));

it('finds the stories of the widgets', () => {
  expect(files.map((f) => f.file)).toContain('auth/src/AuthForm.stories.tsx');
});

describe.each(files)('$file', ({ mod }) => {
  const composed: Record<string, { run: () => Promise<void> }> = composeStories(mod);
  const stories = Object.entries(composed).map(([name, story]) => ({ name, story }));

  it('exports at least one story', () => {
    expect(stories.length).toBeGreaterThan(0);
  });

  it.each(stories)('$name renders', async ({ story }) => {
    const reported: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      reported.push(args.map(String).join(' '));
    });
    // run() unmounts the previous story, mounts this one (decorators, loaders, play) and rejects on a throw.
    await story.run();
    expect(reported).toEqual([]);
    expect(document.body.textContent.trim()).not.toBe('');
  });
});
