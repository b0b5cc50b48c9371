import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'account-settings', root: import.meta.dirname, devPort: 5140 });
