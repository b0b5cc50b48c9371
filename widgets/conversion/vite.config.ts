import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'conversion', root: import.meta.dirname, devPort: 5114 });
