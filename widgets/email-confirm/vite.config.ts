import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'email-confirm', root: import.meta.dirname, devPort: 5102 });
