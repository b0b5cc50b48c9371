import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'sandbox-checkout', root: import.meta.dirname, devPort: 5116 });
