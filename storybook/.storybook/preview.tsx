import type { Preview } from '@storybook/react-vite';
import '../../widgets/kit/src/styles.css';

// Widgets render on Russian pages (`<html lang="ru">`): hyphenation, quotes and date inputs follow it.
document.documentElement.lang = 'ru';

/** Stories render inside the same page frame the host pages give widgets, in Russian. */
const preview: Preview = {
  decorators: [
    (Story) => (
      <div lang="ru" className="page" style={{ margin: 0 }}>
        <Story />
      </div>
    ),
  ],
  parameters: {
    layout: 'fullscreen',
    controls: { matchers: { date: /(At|Date)$/i } },
  },
};

export default preview;
