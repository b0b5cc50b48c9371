import { widgetConfig } from '@app/widget-build';

export default widgetConfig({
  name: 'chat',
  root: import.meta.dirname,
  devPort: 5117,
});
