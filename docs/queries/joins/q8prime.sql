-- Q8': part ⋈ lineitem ⋈ orders ⋈ customer ⋈ nation n1 ⋈ region, lineitem ⋈ supplier ⋈ nation n2 (TPC-H Q8 without its aggregation and constant filters), p_retailprice in a range
select
    orders.o_orderkey,
    lineitem.l_linenumber,
    orders.o_orderdate,
    lineitem.l_extendedprice,
    lineitem.l_discount,
    n2.n_name,
    region.r_name,
    part.p_type,
    n1.n_name
from
    part
    join lineitem on part.p_partkey = lineitem.l_partkey
    join orders on lineitem.l_orderkey = orders.o_orderkey
    join customer on orders.o_custkey = customer.c_custkey
    join nation n1 on customer.c_nationkey = n1.n_nationkey
    join region on n1.n_regionkey = region.r_regionkey
    join supplier on lineitem.l_suppkey = supplier.s_suppkey
    join nation n2 on supplier.s_nationkey = n2.n_nationkey
where
    part.p_retailprice between ${lo} and ${hi}
