-- CH-benCHmark Q4: orders with a line delivered, by line count
SELECT o_ol_cnt, count(*) AS order_count
FROM orders
WHERE EXISTS (SELECT * FROM order_line
              WHERE o_id = ol_o_id AND o_w_id = ol_w_id AND o_d_id = ol_d_id
                AND ol_delivery_d >= o_entry_d)
GROUP BY o_ol_cnt
ORDER BY o_ol_cnt
