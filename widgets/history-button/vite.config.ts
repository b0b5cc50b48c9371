import { widgetConfig } from '@app/widget-build';

export default widgetConfig({ name: 'history-button', root: import.meta.dirname, devPort: 5113 });
