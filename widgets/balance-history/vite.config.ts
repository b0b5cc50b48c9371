import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'balance-history', root: import.meta.dirname, devPort: 5131 });
