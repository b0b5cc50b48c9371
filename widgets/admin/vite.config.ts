import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'admin', root: import.meta.dirname, devPort: 5120 });
