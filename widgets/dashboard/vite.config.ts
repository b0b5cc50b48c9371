import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'dashboard', root: import.meta.dirname, devPort: 5112 });
