import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'welcome-notice', root: import.meta.dirname, devPort: 5115 });
