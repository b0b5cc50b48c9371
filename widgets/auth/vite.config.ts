import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'auth', root: import.meta.dirname, devPort: 5101 });
