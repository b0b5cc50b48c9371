import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'password-reset-form', root: import.meta.dirname, devPort: 5104 });
