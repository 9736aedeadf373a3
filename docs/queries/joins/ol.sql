-- OL: orders ⋈ lineitem on orderkey, o_totalprice in a range
select
    orders.o_orderkey,
    orders.o_custkey,
    orders.o_orderdate,
    orders.o_totalprice,
    lineitem.l_linenumber,
    lineitem.l_partkey,
    lineitem.l_quantity,
    lineitem.l_extendedprice
from
    orders
    join lineitem on orders.o_orderkey = lineitem.l_orderkey
where
    orders.o_totalprice between ${lo} and ${hi}
