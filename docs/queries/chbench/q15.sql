-- CH-benCHmark Q15: the suppliers with the greatest revenue (its view as a WITH clause)
WITH revenue0 AS (
  SELECT (s_w_id * s_i_id) % 10000 AS supplier_no, sum(ol_amount) AS total_revenue
  FROM order_line, stock
  WHERE ol_i_id = s_i_id AND ol_supply_w_id = s_w_id
    AND ol_delivery_d >= TIMESTAMP '2007-01-02 00:00:00'
  GROUP BY (s_w_id * s_i_id) % 10000)
SELECT su_suppkey, su_name, su_address, su_phone, total_revenue
FROM supplier, revenue0
WHERE su_suppkey = supplier_no
  AND total_revenue = (SELECT max(total_revenue) FROM revenue0)
ORDER BY su_suppkey
