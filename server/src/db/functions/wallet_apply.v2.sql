create or replace function wallet_apply(ops jsonb) returns jsonb
language plpgsql as $fn$
declare
  op jsonb;
  results jsonb := '[]'::jsonb;
  v_id bigint;
  v_user bigint;
  v_kind text;
  v_amount bigint;
  v_spent bigint;
  v_back bigint;
  h record;
begin
  for op in select value from jsonb_array_elements(ops) loop
    if op->>'op' = 'hold' then
      v_user := (op->>'user_id')::bigint;
      v_kind := op->>'kind';
      v_amount := (op->>'amount')::bigint;
      insert into wallet_holds (user_id, kind, amount, idempotency_key)
        values (v_user, v_kind, v_amount, op->>'key')
        on conflict (idempotency_key) do nothing
        returning id into v_id;
      if v_id is null then
        select id, user_id, kind, amount, status into h from wallet_holds where idempotency_key = op->>'key';
        results := results || jsonb_build_object('status', 'existing', 'hold_id', h.id, 'user_id', h.user_id, 'kind', h.kind, 'amount', h.amount, 'hold_status', h.status);
        continue;
      end if;
      update wallets set balance = balance - v_amount, updated_at = now()
        where user_id = v_user and kind = v_kind and balance >= v_amount;
      if not found then
        delete from wallet_holds where id = v_id;
        results := results || jsonb_build_object('status', 'insufficient');
        continue;
      end if;
      insert into wallet_ledger (user_id, kind, amount, reason, ref_type, ref_id, idempotency_key, hold_id)
        values (v_user, v_kind, -v_amount, 'generation_hold', op->>'ref_type', op->>'ref_id', 'hold:' || v_id, v_id);
      results := results || jsonb_build_object('status', 'held', 'hold_id', v_id, 'user_id', v_user, 'kind', v_kind, 'amount', v_amount, 'hold_status', 'held');
    elsif op->>'op' = 'settle' then
      v_spent := (op->>'spent')::bigint;
      update wallet_holds
        set spent = least(v_spent, amount),
            status = case when least(v_spent, amount) = 0 then 'released' else 'settled' end,
            closed_at = now()
        where id = (op->>'hold_id')::bigint and status = 'held'
        returning id, user_id, kind, amount, amount - least(v_spent, amount) into v_id, v_user, v_kind, v_amount, v_back;
      if v_id is null then
        results := results || jsonb_build_object('status', 'closed', 'returned', 0);
        continue;
      end if;
      if v_back > 0 then
        insert into wallet_ledger (user_id, kind, amount, reason, idempotency_key, hold_id)
          values (v_user, v_kind, v_back, 'generation_release', 'release:' || v_id, v_id);
        update wallets set balance = balance + v_back, updated_at = now() where user_id = v_user and kind = v_kind;
      end if;
      results := results || jsonb_build_object('status', case when v_back = v_amount then 'released' else 'settled' end, 'returned', v_back);
    else
      raise exception 'wallet_apply: unknown operation %', op->>'op';
    end if;
  end loop;
  return results;
end
$fn$;
