/**
 * The part of the page's boot that needs React: React, ReactDOM and the kit, which the page offers
 * its widgets, and the kit's query client seeded with what the server read for them. A chunk of
 * its own (`loader.ts` imports it beside `boot.ts`), so that the federation runtime and the
 * contracts evaluate, and the widgets' remotes load and start, while React is still on its way:
 * on a slow link React is the page's largest file and arrives last.
 */
import * as React from 'react';
import * as ReactDOM from 'react-dom';
import * as ReactDOMClient from 'react-dom/client';
import * as JsxRuntime from 'react/jsx-runtime';
import * as JsxDevRuntime from 'react/jsx-dev-runtime';
import * as Kit from '@app/kit';
import type { EagerHostModule } from '@app/widget-build/host-modules';

/** The host modules of this chunk, by name. */
export const UI_MODULES = {
  react: React,
  'react-dom': ReactDOM,
  'react-dom/client': ReactDOMClient,
  'react/jsx-runtime': JsxRuntime,
  'react/jsx-dev-runtime': JsxDevRuntime,
  '@app/kit': Kit,
} satisfies Partial<Record<EagerHostModule, object>>;

/**
 * The kit's query client gets what the server read for the widgets as it rendered the page, so
 * they mount with their data; a page the back/forward cache restores shows what it showed when it
 * was left (a balance before the words spent in the chat since): its widgets read their data
 * again, drawing the old until the new arrives.
 */
export function seedPageData(): void {
  Kit.seedPageReplies(Kit.pageQueryClient, document.getElementById('page-data')?.textContent);
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) void Kit.pageQueryClient.invalidateQueries();
  });
}
