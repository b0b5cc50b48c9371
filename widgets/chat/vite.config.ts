import path from 'node:path';
import { widgetConfig } from '@app/widget-build';

export default widgetConfig({
  name: 'chat',
  root: import.meta.dirname,
  devPort: 5117,
  // The polyfill (≈3 KB) is only a fallback for browsers without `structuredClone`.
  alias: { '@ungap/structured-clone': path.join(import.meta.dirname, 'src', 'structured-clone.ts') },
});
