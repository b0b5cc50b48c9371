create or replace function wallet_hold_commit() returns trigger
language plpgsql as $fn$
declare
  v_delta bigint;
begin
  -- A hold placed takes its amount; a hold closed gives back what it did not keep, less a refund's claim on it.
  if TG_OP = 'INSERT' then
    v_delta := -NEW.amount;
  else
    v_delta := (NEW.amount - NEW.spent) - least(NEW.clawback, NEW.amount - NEW.spent);
  end if;
  if v_delta <> 0 then
    -- At commit: the wallet's row is locked only for the commit itself. A balance that no longer
    -- covers a hold fails its CHECK (balance >= 0), and the whole transaction with it.
    update wallets set balance = balance + v_delta, updated_at = now() where user_id = NEW.user_id and kind = NEW.kind;
  end if;
  return null;
end
$fn$;
