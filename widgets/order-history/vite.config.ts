import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'order-history', root: import.meta.dirname, devPort: 5111 });
