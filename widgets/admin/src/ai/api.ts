/** The calls of the AI catalogue tabs: 2 «Аи продукты», 3 «Аи категории продуктов», 4 «Аи модели», 14 «Провайдеры». */
export const aiApi = {};
