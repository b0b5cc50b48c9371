import { sql, type Kysely } from 'kysely';

/**
 * The seeded postcard's template read «…для {recipient}, стиль: {style}», so a recipient typed as
 * its placeholder suggests («маме», «Бабушке Нине») became «для Бабушке Нине». Databases seeded
 * before get the seed's new text, only where staff have not changed it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update ai_products
       set prompt_template = 'Праздничная открытка к событию «{occasion}». Кому: {recipient}. Стиль: {style}'
     where prompt_template = 'Праздничная открытка к событию «{occasion}» для {recipient}, стиль: {style}'`.execute(db);
}
