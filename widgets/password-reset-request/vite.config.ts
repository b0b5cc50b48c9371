import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'password-reset-request', root: import.meta.dirname, devPort: 5103 });
